import { describe, expect, it } from 'vitest';
import { de } from './de.js';
import { en } from './en.js';
import { createTranslate, interpolate, resolveMessages } from './index.js';

describe('messages', () => {
  it('interpolates {name} placeholders and leaves unknown ones visible', () => {
    expect(interpolate('Continue in {wallet}, {who}', { wallet: 'Test Wallet' })).toBe('Continue in Test Wallet, {who}');
  });

  it('translates through the resolved catalogue with overrides', () => {
    const t = createTranslate(resolveMessages('de', { retry: 'Nochmal' }));
    expect(t('connectWallet')).toBe('Wallet verbinden');
    expect(t('retry')).toBe('Nochmal');
    expect(t('connectionFailed', { wallet: 'Test Wallet' })).toBe('Die Verbindung mit Test Wallet ist fehlgeschlagen.');
  });

  it('keeps the German catalogue complete and using the same placeholders', () => {
    const placeholders = (text: string) => text.match(/\{\w+\}/g)?.sort() ?? [];
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
    }
  });
});
