/** Where the system browsers are, and how to start them quietly on a machine without network. */
import { existsSync } from 'node:fs';

/** Debian's chromium; the binary itself skips the wrapper script's noisy warning. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : '/usr/bin/chromium');
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Without these, Chromium keeps trying to reach Google's services and is refused. */
export const BROWSER_ARGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const INSTALL_HINT: Record<string, string> = {
  chromium: 'install it with: sudo apt-get install chromium (or pass --executable PATH)',
  firefox: 'install it with: sudo apt-get install firefox-esr (or pass --executable PATH)',
};
