// Loaded by the bench into the mock's own process (`node --expose-gc --import=<this file>`), so that its
// memory can be read after a full garbage collection: SIGUSR2 collects. The mock server knows nothing of it.
process.on('SIGUSR2', () => {
  // Twice: what the first collection frees may hold what the second frees.
  globalThis.gc?.();
  globalThis.gc?.();
});
