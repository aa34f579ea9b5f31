/** The browser's benchmark worker: one per round; the page terminates it to cancel. */
import { browserPlatform } from './platform-browser.ts';
import { serve } from './rpc.ts';
import { createApi } from './api.ts';
import type { ThreadPort } from './page-thread.ts';

const endpoint = self as unknown as Parameters<typeof serve>[1];
let emit: (e: unknown) => void = () => {};
const api = createApi(browserPlatform, (e) => emit(e));
emit = serve(api, endpoint);

// Started by the page as a module's thread of its own (page-thread.ts): it answers over the port it is handed.
self.addEventListener('message', (e: MessageEvent) => {
  const port = (e.data as Partial<ThreadPort> | null)?.threadPort;
  if (!port) return;
  emit = serve(api, port);
  port.start();
});
