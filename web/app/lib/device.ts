/**
 * A first guess at the visitor's device class, which the visitor confirms or changes before
 * anything is sent. User-Agent Client Hints where the browser has them (Chromium), UA parsing
 * with a maintained library elsewhere (Firefox and Safari have no UA-CH), then screen and
 * pointer hints. Nothing here leaves the page unless the visitor submits.
 */
import Bowser from 'bowser';
import type { DeviceClass } from '../../core/submit.ts';

type Hints = { mobile?: boolean; formFactors?: string[]; model?: string; architecture?: string; bitness?: string };

export interface DeviceGuess {
  deviceClass: DeviceClass;
  model: string;
  reason: string;
}

export async function guessDevice(): Promise<DeviceGuess> {
  const nav = navigator as Navigator & {
    userAgentData?: { mobile?: boolean; getHighEntropyValues(h: string[]): Promise<Hints> };
    getBattery?: () => Promise<{ charging: boolean; dischargingTime: number }>;
  };
  let model = '';
  if (nav.userAgentData) {
    try {
      const h = await nav.userAgentData.getHighEntropyValues(['formFactors', 'model', 'architecture', 'bitness']);
      model = h.model ?? '';
      const ff = (h.formFactors ?? []).map((f) => f.toLowerCase());
      if (ff.includes('tablet')) return { deviceClass: 'tablet', model, reason: 'client hints: form factor Tablet' };
      if (ff.includes('mobile') || nav.userAgentData.mobile) return { deviceClass: 'phone', model, reason: 'client hints: mobile' };
    } catch {
      /* hints refused */
    }
  }
  const platform = Bowser.parse(navigator.userAgent).platform;
  if (platform.type === 'mobile') return { deviceClass: 'phone', model: model || platform.model || '', reason: 'user-agent: mobile' };
  if (platform.type === 'tablet') return { deviceClass: 'tablet', model: model || platform.model || '', reason: 'user-agent: tablet' };
  const coarse = matchMedia('(pointer: coarse)').matches && !matchMedia('(pointer: fine)').matches;
  if (coarse) {
    const short = Math.min(screen.width, screen.height);
    return short < 600 ? { deviceClass: 'phone', model, reason: 'touch screen, narrow' } : { deviceClass: 'tablet', model, reason: 'touch screen, wide' };
  }
  // A battery says laptop; Chromium alone exposes it. Otherwise desktop, to be corrected.
  try {
    const battery = await nav.getBattery?.();
    if (battery && (!battery.charging || Number.isFinite(battery.dischargingTime))) return { deviceClass: 'laptop', model, reason: 'runs on a battery' };
  } catch {
    /* no battery API */
  }
  return { deviceClass: 'desktop', model, reason: 'no touch screen, no battery seen' };
}
