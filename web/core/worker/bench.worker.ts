/** The browser's benchmark worker: one per round; the page terminates it to cancel. */
import { browserPlatform } from './platform-browser.ts';
import { serve } from './rpc.ts';
import { createApi } from './api.ts';

const endpoint = self as unknown as Parameters<typeof serve>[1];
let emit: (e: unknown) => void = () => {};
const api = createApi(browserPlatform, (e) => emit(e));
emit = serve(api, endpoint);
