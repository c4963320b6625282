/* sanitizer_options.h: the sanitizers' defaults for mantis's binaries (SAN=1 builds only). */
#ifndef MANTIS_SANITIZER_OPTIONS_H
#define MANTIS_SANITIZER_OPTIONS_H

/* Read by the AddressSanitizer runtime at start (it declares it weak); returns a static string. */
const char *__asan_default_options(void);

#endif
