// A twin: @noble/ciphers' built-in as a module of the contract, exactly its calls under another
// id. Timed beside the built-in it must read the same (bench:twins, apart.test.ts).
import { nobleModule } from '../../implementations/noble/backend.ts';

export default { ...nobleModule, id: 'twin-noble', label: '@noble/ciphers, as a module' };
