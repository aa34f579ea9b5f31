// Never returns from a synchronous call: only stopping its worker ends it.
export default {
  id: 'test-hangs',
  label: 'never returns',
  algorithms: ['aes-128-gcm'],
  encrypt() {
    for (;;);
  },
  decrypt() {
    for (;;);
  },
};
