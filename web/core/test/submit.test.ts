import { describe, expect, it } from 'vitest';
import { DEVICE_FAMILY_NAMES, deviceFamily, submissionBody } from '../submit.ts';
import type { ResultDocument } from '../schema.ts';
import { sampleDocument } from './fixtures.ts';

describe('device families', () => {
  it.each([
    ['Pixel 8', 'Google Pixel'],
    ['SM-A546E', 'Samsung Galaxy'],
    ['Redmi Note 12', 'Xiaomi, Redmi, POCO'],
    ['23021RAA2Y', 'Xiaomi, Redmi, POCO'],
    ['CPH2591', 'OPPO'],
    ['RMX3710', 'realme'],
    ['V2254', 'vivo'],
    ['Infinix X6833B', 'Infinix, TECNO, itel'],
    ['iPhone', 'iPhone'],
    ['Google Pixel', 'Google Pixel'],
  ])('puts the model %s in the family %s', (model, family) => {
    expect(deviceFamily(model)).toBe(family);
  });

  it('knows no family for free text, so nothing is sent', () => {
    expect(deviceFamily("Anna's Pixel 8")).toBeNull();
    expect(deviceFamily('=HYPERLINK("x")')).toBeNull();
    expect(deviceFamily('')).toBeNull();
  });

  it('sends the family instead of the model, and nothing for an unknown model', () => {
    const doc = sampleDocument() as ResultDocument;
    expect(submissionBody(doc, { deviceClass: 'phone', deviceModel: 'Pixel 8' }).deviceModel).toBe('Google Pixel');
    expect(submissionBody(doc, { deviceClass: 'phone', deviceModel: "Anna's phone" })).not.toHaveProperty('deviceModel');
    expect(new Set(DEVICE_FAMILY_NAMES).size).toBe(DEVICE_FAMILY_NAMES.length);
  });
});
