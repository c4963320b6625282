/* Hard cases for an instrumentor: setjmp/longjmp, a signal handler, inline assembly, varargs,
 * recursion through a function pointer. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static volatile sig_atomic_t signals;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

static int sum(int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

static void dive(int depth)
{
	if (depth == 0)
		longjmp(env, 7);
	dive(depth - 1);
}

static int twice(int x)
{
	int y;

	__asm__("lea (%1,%1), %0" : "=r"(y) : "r"(x));
	return y;
}

static int apply(int (*f)(int), int x, int times)
{
	return times == 0 ? x : apply(f, f(x), times - 1);
}

int main(int argc, char **argv)
{
	int jumped, n = atoi(argv[1]);

	(void)argc;
	signal(SIGUSR1, on_signal);
	for (int i = 0; i < n; i++)
		raise(SIGUSR1);
	jumped = setjmp(env);
	if (jumped == 0)
		dive(n);
	printf("%d %d %d %d\n", (int)signals, jumped, sum(4, 1, 2, 3, n), apply(twice, 1, n));
	return 0;
}

// run: 5
// expect: call:on_signal:hard.c:12 = 5
// expect: call:dive:hard.c:30 = 6
// expect: exit:dive:hard.c:33:longjmp = 1
// expect: loop:sum:hard.c:24 = 4
// expect: call:twice:hard.c:37 = 5
// expect: call:apply:hard.c:45 = 6
// expect: loop:main:hard.c:56 = 5
