// A twin: libsodium.js's built-in as a module of the contract, exactly its calls under another id.
import { libsodiumModule } from '../../implementations/libsodium/backend.ts';

export default { ...(await libsodiumModule()), id: 'twin-libsodium', label: 'libsodium.js, as a module' };
