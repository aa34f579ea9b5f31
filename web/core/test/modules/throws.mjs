// Throws on every encryption.
export default {
  id: 'test-throws',
  label: 'always throws',
  algorithms: ['aes-128-gcm'],
  encrypt() {
    throw new Error('boom');
  },
  decrypt() {
    throw new Error('boom');
  },
};
