/* Preloaded into every process of the sanitizer stage (scripts/test-sanitized.sh,
 * docs/testing.md "Sanitizer build"): dlclose does nothing, so a shared object,
 * once loaded, stays loaded until the process exits. The Vulkan loader unloads
 * the driver (lavapipe) and the validation layer at vkDestroyInstance; memory
 * that the driver keeps in its globals for its whole life would then be
 * reachable from nothing and reported as leaked at exit, with the driver's
 * frames as <unknown module>. Kept loaded, that memory is reachable, and any
 * report that does involve a driver names its module. */
int dlclose(void *handle) {
  (void)handle;
  return 0;
}
