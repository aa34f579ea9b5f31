/**
 * The environment a result was measured in, coarse enough to say what ran where. The full
 * user-agent string is kept in the local document only; what is submitted is reduced further.
 * @module
 */
import type { EngineName, Environment } from '../schema.ts';
import { ENGINE_VERSION } from '../version.ts';

interface NameVersion {
  name: string;
  version: string;
}

/**
 * Browser families, most specific token first (Edge and Opera also say Chrome). WebKitGTK
 * (MiniBrowser, GNOME's Epiphany) says "Safari" with a made-up Version/60.5; Safari never runs
 * on Linux, so Safari-like on X11/Linux is WebKitGTK, its real version known only to its driver.
 */
const BROWSER_RULES = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Epiphany', /Epiphany\/([\d.]+)/],
  ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:HeadlessChrome|Chrome|CriOS)\/([\d.]+)/],
  ['WebKitGTK', /^(?!.*(?:Chrome|Chromium|CriOS|Android))(?=.*(?:X11|Linux)).*AppleWebKit\/[\d.]+.*Safari()/],
  ['Safari', /Version\/([\d.]+).*Safari/],
  ['Node.js', /Node\.js\/v?([\d.]+)/],
] as const satisfies readonly (readonly [string, RegExp])[];

const OS_RULES = [
  ['Android', /Android ([\d.]+)/],
  ['iOS', /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/],
  ['Windows', /Windows NT ([\d.]+)/],
  ['macOS', /Mac OS X ([\d_.]+)/],
  ['ChromeOS', /CrOS \S+ ([\d.]+)/],
  ['Linux', /Linux()/],
] as const satisfies readonly (readonly [string, RegExp])[];

/** Node's `process.platform` → OS family, for results measured in Node. */
export const NODE_OS_NAMES: Readonly<Record<string, string>> = Object.freeze({
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  android: 'Android',
});
/** Node's `process.arch` → the arch names used everywhere else. */
export const NODE_ARCHES: Readonly<Record<string, string>> = Object.freeze({
  x64: 'x86-64',
  ia32: 'x86',
  arm64: 'arm64',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
});

// Browser engines are a field of the schema: defined there, offered here with the other tables.
export { ENGINE_NAMES, type EngineName } from '../schema.ts';

/**
 * The engine behind a user agent. Every browser on iOS and iPadOS is WebKit, whatever its name
 * (Apple's rule); Blink's version is its Chrome version; Gecko's its rv:; WebKit's the frozen
 * AppleWebKit token (605.1.15 on every Safari), so a driver's figure replaces it where known.
 */
export function engineFromUserAgent(ua: string): { name: EngineName; version: string } {
  const ios = /iPhone|iPad|iPod/.test(ua);
  const webkit = /AppleWebKit\/([\d.]+)/.exec(ua);
  if (ios && webkit) return { name: 'WebKit', version: webkit[1]! };
  const chrome = /(?:HeadlessChrome|Chrome|Chromium)\/([\d.]+)/.exec(ua);
  if (chrome) return { name: 'Blink', version: chrome[1]! };
  const gecko = /rv:([\d.]+)\) Gecko\/\d/.exec(ua);
  if (gecko) return { name: 'Gecko', version: gecko[1]! };
  if (webkit) return { name: 'WebKit', version: webkit[1]! };
  if (/Node\.js/.test(ua)) return { name: 'V8', version: '' };
  return { name: 'unknown', version: '' };
}

/** Every name this engine can put in `environment.browser.name`, `os.name` and `arch`: the collector accepts these only. */
export const BROWSER_NAMES = Object.freeze([...BROWSER_RULES.map(([name]) => name), 'unknown']);
export const OS_NAMES = Object.freeze([...new Set([...OS_RULES.map(([name]) => name), ...Object.values(NODE_OS_NAMES), 'iPadOS', 'unknown'])]);
export const ARCHES = Object.freeze([...new Set(['x86-64', 'x86', 'arm64', 'arm', ...Object.values(NODE_ARCHES), 'unknown'])]);

/** Browser and OS family from a user-agent string, most specific token first. */
export function parseUserAgent(ua: string): { browser: NameVersion; os: NameVersion } {
  const pick = (rules: readonly (readonly [string, RegExp])[]): NameVersion => {
    for (const [name, re] of rules) {
      const m = re.exec(ua);
      if (m) return { name, version: (m[1] ?? '').replace(/_/g, '.') };
    }
    return { name: 'unknown', version: '' };
  };
  return { browser: pick(BROWSER_RULES), os: pick(OS_RULES) };
}

export function archFromUserAgent(ua: string): string {
  if (/aarch64|arm64/i.test(ua)) return 'arm64';
  if (/x86_64|x64|Win64|amd64|WOW64/i.test(ua)) return 'x86-64';
  if (/Android|iPhone|iPad/i.test(ua)) return 'arm';
  if (/i[3-6]86/.test(ua)) return 'x86';
  return 'unknown';
}

type NavigatorWithHints = Navigator & {
  deviceMemory?: number;
  userAgentData?: { platform?: string; getHighEntropyValues(h: string[]): Promise<Record<string, string>> };
};

export interface WorkerFacts {
  timerResolutionMs: number;
  clock?: Environment['clock'];
  wasm: Environment['wasm'];
  execution?: Environment['execution'];
  buildInfo: Record<string, unknown>;
}

/** Browser environment, completed with what the worker measured. */
export async function browserEnvironment(facts: WorkerFacts): Promise<Environment> {
  const nav = navigator as NavigatorWithHints;
  const ua = nav.userAgent;
  const { browser, os } = parseUserAgent(ua);
  let arch = archFromUserAgent(ua);
  try {
    const h = await nav.userAgentData?.getHighEntropyValues(['architecture', 'bitness']);
    if (h?.architecture) arch = h.architecture === 'arm' ? (h.bitness === '64' ? 'arm64' : 'arm') : h.bitness === '64' ? 'x86-64' : 'x86';
  } catch {
    /* hints refused: keep the UA's guess */
  }
  return {
    userAgent: ua,
    browser,
    engine: engineFromUserAgent(ua),
    os,
    arch,
    platform: nav.userAgentData?.platform ?? nav.platform ?? '',
    hardwareConcurrency: nav.hardwareConcurrency ?? 0,
    deviceMemoryGiB: nav.deviceMemory ?? null,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerResolutionMs: facts.timerResolutionMs,
    wasm: facts.wasm,
    engineVersion: ENGINE_VERSION,
    cores: coresInfo(facts.buildInfo),
    runtime: 'browser',
    clock: facts.clock ?? null,
    ...(facts.execution ? { execution: facts.execution } : {}),
  };
}

export function coresInfo(buildInfo: Record<string, unknown>): Environment['cores'] {
  const crates = (buildInfo.crates as Record<string, string> | undefined) ?? {};
  return {
    crates: { 'aeadbench-cores': String(buildInfo.version ?? ''), ...crates },
    wasmBindgen: String(buildInfo.wasmBindgen ?? crates['wasm-bindgen'] ?? ''),
    backends: (buildInfo.backends as Record<string, string> | undefined) ?? {},
  };
}

/**
 * The largest payload this device should be asked to hold: a case keeps about three copies of
 * its payload alive (input, output, sealed copy), and WASM memory never shrinks. Scaled by
 * `deviceMemory` where the browser tells it (Chromium; capped at its reported buckets), else a
 * guess from whether it is a phone.
 */
export function payloadLimitBytes(deviceMemoryGiB: number | null, mobile: boolean): number {
  const MiB = 1 << 20;
  if (deviceMemoryGiB !== null) return Math.min(64 * MiB, Math.max(8 * MiB, deviceMemoryGiB * 16 * MiB));
  return mobile ? 16 * MiB : 64 * MiB;
}
