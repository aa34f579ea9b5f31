// jStat ships no types: the module's default export, typed where it is used (lab/bench/repeatability.ts).
declare module 'jstat' {
  const jstat: unknown;
  export default jstat;
}
