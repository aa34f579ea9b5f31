// A twin: node:crypto's built-in (a KeyObject per key, createCipheriv per message, ciphertext ‖
// tag) as a module of the contract, exactly its calls under another id. Node only.
import { nodeCryptoModule } from '../../implementations/node-crypto/backend.ts';

export default { ...nodeCryptoModule(), id: 'twin-node-crypto', label: 'node:crypto, as a module' };
