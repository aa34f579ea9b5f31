// jStat ships no types: the module's default export, typed where it is used (scripts/repeatability.ts).
declare module 'jstat' {
  const jstat: unknown;
  export default jstat;
}
