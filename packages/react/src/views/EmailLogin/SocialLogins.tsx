import { useEffect, useState } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { EmbeddedWallet } from '../../core/embedded/wallet.js';
import { loadWasmExtra } from '../../core/wasmExtra.js';

/** Providers' names as they write them (the same in every language). */
const NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
};

/**
 * Behaviour 5.16: inside a Telegram mini-app some providers cannot open (latch-core's rule, in the
 * `extra` module: fetched only there).
 */
async function telegramFiltered(socials: string[]): Promise<string[]> {
  const platform = (globalThis as { Telegram?: { WebApp?: { platform?: unknown } } }).Telegram?.WebApp?.platform;
  if (typeof platform !== 'string') return socials;
  const { filterTelegramSocials } = await loadWasmExtra();
  // Telegram names macOS `macos`; latch-core takes it as `mac` too.
  return filterTelegramSocials(socials, platform);
}

/** The social logins latch has configured (behaviour 1.1: after the e-mail field). */
export function SocialLogins({ wallet, busy }: { wallet: EmbeddedWallet; busy: boolean }) {
  const latch = useLatchInstance();
  const [socials, setSocials] = useState<string[]>([]);
  useEffect(() => {
    let current = true;
    void wallet
      .socials()
      .then((list) => telegramFiltered(list.filter((id) => id in NAMES)))
      .then((list) => {
        if (current) setSocials(list);
      });
    return () => {
      current = false;
    };
  }, [wallet]);
  if (socials.length === 0) return null;
  return (
    <ul className="latch-social-list" aria-label={latch.t('socialLogins')}>
      {socials.map((provider) => (
        <li key={provider}>
          <Button
            disabled={busy}
            data-testid={`social-${provider}`}
            // The popup opens on the click itself: browsers block one opened later.
            onClick={() => void wallet.connectSocial(provider, window.open('about:blank', 'latch-social', 'popup,width=480,height=640'))}
          >
            {latch.t('socialContinue', { provider: NAMES[provider] ?? provider })}
          </Button>
        </li>
      ))}
    </ul>
  );
}
