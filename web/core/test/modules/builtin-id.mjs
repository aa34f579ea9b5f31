// Breaks the contract: takes a built-in implementation's id.
export default {
  id: 'noble',
  label: 'an impostor',
  algorithms: ['aes-128-gcm'],
  encrypt: (_a, _k, _n, _d, pt) => pt,
  decrypt: (_a, _k, _n, _d, ct) => ct,
};
