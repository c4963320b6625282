/*
 * sanitizer_options.c: the sanitizers' defaults for mantis's own binaries, linked only into the
 * ASan+UBSan build (SAN=1; the Makefile's SAN_OBJ).
 *
 * intercept_tls_get_addr=0: the sanitizer runtime of LLVM 14 (and up to LLVM 16 and GCC 13), in
 * its __tls_get_addr interceptor, takes a dynamic thread-local block whose address is 16 bytes
 * past a page boundary for one carrying glibc 2.19's header and reads the two words before it as
 * the block's start and size; since glibc 2.25 there is no such header, so when malloc happens
 * to place a block there, LeakSanitizer's tracer scans a range of garbage and dies at exit
 * ("Tracer caught signal 11", "LeakSanitizer has encountered a fatal error"). solib.c loads
 * evaluators with thread-local storage afresh for each run (test_solib.c's thread_local_runs),
 * which made that chance real: one CI run in a few dozen failed so (google/sanitizers#1322).
 * Without the interceptor LeakSanitizer still scans each thread's static TLS and descriptor,
 * whose DTV reaches the dynamic blocks as heap chunks; it no longer takes them for roots.
 */
#include "sanitizer_options.h"

/* Returns the default options (a static string) the AddressSanitizer runtime reads at start;
 * ASAN_OPTIONS in the environment still overrides them. */
const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}
