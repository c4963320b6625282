/*
 * solib.c: an evaluator's shared-object form, run in the caller's process.
 *
 * Why: on this kind of host a process costs more than a short evaluator's work. A static
 * program that exits at once takes 1-4.4 ms from vfork to reaping (exec, the page tables, page
 * faults at about 15 us each: tests of session 64), while dlopen, a call and dlclose of a small
 * shared object take 0.12 ms. An evaluator that reads a header (djpeg's) costs its process
 * start and little else, and runs of 4 ms make that 25-100% of the program's time.
 *
 * The form: the slice's bitcode linked with slicert.o (recorder, sandbox.c) and inproc.o (the
 * harness: rt/inproc.c) into a shared object with -Bsymbolic, so the slice's calls of exit,
 * abort, atexit, signal, open, fopen, write... bind to the runtimes' definitions. A run finds
 * it loaded with its writable data as loaded (kept loaded, that data put back: below) or loads
 * it, so its globals start as a new process's, and calls __mantis_inproc_run, which calls main
 * and returns at the program's end. Around the run the caller's process is
 * saved and put back: environment (its strings, set again), working folder (the run's scratch
 * folder, as runner.c gives), umask, locale, descriptor 0 (the input's stdin), the stdout and
 * stderr streams (sandbox.c's constructor makes them discard; the caller's come back), and
 * every descriptor the run left open is closed. SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT and
 * SIGALRM (a crash or the time budget) siglongjmp out of the run: their action is on_signal
 * from the first run on, which outside a run hands the signal to the process's own action.
 *
 * What cannot be put back is refused before a run: solib_hostable reads the shared object's
 * undefined dynamic symbols (ELF .dynsym) and names the first of a list of functions whose
 * effect reaches beyond the run (a child process, a thread, a signal to another process, the
 * process's identity or limits). What a run that ended left allocated (through the slice's
 * malloc family) or open (its streams) the object's last destructor gives back as it is
 * unloaded (rt/inproc.c), and the sinks below are closed, so a server's heap and the C
 * library's list of streams stay as they were over thousands of runs. Invariant: a hostable
 * object's run leaves the caller as it was, but for what the C library allocated for the run
 * (and, after a crash or a timeout, whatever the run broke of the C library's state, and what
 * it left allocated).
 */
#include "solib.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SOLIB_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOLIB_LSAN 1
#endif
#endif
#ifdef SOLIB_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

/* ---- building and checking ---------------------------------------------------------------- */

/* Functions whose effect outlasts a run or reaches beyond the process's own state. */
static const char *const refused[] = {
	"fork", "vfork", "_Fork", "clone", "clone3", "execve", "execv", "execvp", "execvpe",
	"execl", "execlp", "execle", "fexecve", "system", "popen", "posix_spawn", "posix_spawnp",
	"pthread_create", "thrd_create", "kill", "killpg", "sigqueue", "tgkill", "pthread_kill",
	"daemon", "setsid", "setpgid", "setpgrp", "setuid", "setgid", "seteuid", "setegid",
	"setreuid", "setregid", "setresuid", "setresgid", "chroot", "setrlimit", "prlimit",
	"prctl", "ptrace", "timer_create", "signalfd", "dlopen", "dlmopen", NULL,
};

/* Returns whether [off, off + size) lies within a file of n bytes. */
static int within(uint64_t off, uint64_t size, size_t n)
{
	return off <= n && size <= n - off;
}

int solib_hostable(const char *so, struct error *err)
{
	int fd = open(so, O_RDONLY | O_CLOEXEC), entry = 0, rc = 0;
	struct stat st;
	const unsigned char *file;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;

	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = error_errno(err, "cannot read %s", so);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (file == MAP_FAILED)
		return error_errno(err, "cannot read %s", so);
	eh = (const Elf64_Ehdr *)file;
	if ((size_t)st.st_size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_DYN ||
	    !within(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof *sh, (size_t)st.st_size)) {
		munmap((void *)file, (size_t)st.st_size);
		return error_set(err, "%s is not a 64-bit ELF shared object", so);
	}
	sh = (const Elf64_Shdr *)(file + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum && rc == 0; i++) {
		const Elf64_Shdr *strtab = sh[i].sh_link < eh->e_shnum ? &sh[sh[i].sh_link] : NULL;
		const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh[i].sh_offset);

		if (sh[i].sh_type != SHT_DYNSYM || !strtab ||
		    !within(sh[i].sh_offset, sh[i].sh_size, (size_t)st.st_size) ||
		    !within(strtab->sh_offset, strtab->sh_size, (size_t)st.st_size))
			continue;
		for (size_t k = 0; k < sh[i].sh_size / sizeof *sym && rc == 0; k++) {
			const char *name = (const char *)file + strtab->sh_offset + sym[k].st_name;

			if (sym[k].st_name >= strtab->sh_size)
				continue;
			if (sym[k].st_shndx != SHN_UNDEF) {
				entry |= strcmp(name, "__mantis_inproc_run") == 0;
				continue;
			}
			for (int r = 0; refused[r]; r++)
				if (strcmp(name, refused[r]) == 0)
					rc = error_set(err, "it calls %s, which would reach beyond its "
						       "run", name);
		}
	}
	munmap((void *)file, (size_t)st.st_size);
	if (rc == 0 && !entry)
		rc = error_set(err, "%s has no __mantis_inproc_run (not linked with inproc.o)", so);
	return rc;
}

/* ---- a run in this process ----------------------------------------------------------------- */

/* The signals a run's end may come by: a crash, or SIGALRM at the time budget. */
static const int caught[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
#define NCAUGHT (int)(sizeof caught / sizeof *caught)

static sigjmp_buf run_jump;		 /* solib_run's frame, for a caught signal */
static volatile sig_atomic_t run_signal; /* the signal that ended the run, or 0 */
static volatile sig_atomic_t in_run;	 /* 1 while run_jump is a run's frame */
static volatile sig_atomic_t handling;	 /* 1 while on_signal is each caught signal's action */
static struct sigaction process_action[NCAUGHT]; /* each one's action before on_signal */

/*
 * Ends the run a caught signal came in. Outside a run the process's own action is put back and
 * takes the signal: a fault's instruction faults again when this returns, a sent or raised
 * signal is raised again. The actions stay set between runs (rt/inproc.c makes a hosted
 * object's signal and sigaction do nothing, so a run cannot change them): setting and putting
 * back six actions per run was 12 of a trivial run's 52 system calls.
 */
static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (in_run) {
		run_signal = sig;
		siglongjmp(run_jump, 1);
	}
	for (int i = 0; i < NCAUGHT; i++)
		if (caught[i] == sig)
			sigaction(sig, &process_action[i], NULL);
	handling = 0;
	if (info->si_code <= 0 || sig == SIGALRM)
		raise(sig);
}

/* Makes on_signal the caught signals' action, unless it is. */
static void catch_signals(void)
{
	struct sigaction act = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_NODEFER};

	if (handling)
		return;
	sigemptyset(&act.sa_mask);
	for (int i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &act, &process_action[i]);
	handling = 1;
}

/* What solib_run changes of the process, to put back. */
struct saved {
	char **env;			/* the caller's environment strings (borrowed: the C library
					   never frees them), NULL-ended; the array owned */
	int cwd;			/* the caller's working folder (O_PATH), or -1 */
	mode_t umask;			/* the caller's umask */
	char *locale;			/* setlocale(LC_ALL, NULL) of the caller; owned */
	int stdin_fd;			/* a duplicate of the caller's descriptor 0, or -1 */
	FILE *out, *err;		/* the caller's stdout and stderr streams */
	unsigned char *open_fds;	/* per descriptor below nfds: 1 if open before; owned */
	int nfds;			/* entries of open_fds */
};

/* Returns per descriptor of this process below *n, 1 if it is open (/proc/self/fd), 0 if not;
 * a malloc'd array owned by the caller, NULL when none could be read. */
static unsigned char *open_descriptors(int *n)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned char *open_fds = NULL;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || fd < 0 || fd > 1 << 20 || fd == dirfd(d))
			continue;
		if (fd >= *n) {
			open_fds = xrealloc(open_fds, (size_t)fd + 1);
			memset(open_fds + *n, 0, (size_t)fd + 1 - (size_t)*n);
			*n = (int)fd + 1;
		}
		open_fds[fd] = 1;
	}
	closedir(d);
	return open_fds;
}

/* Returns a copy of the environment's array (its strings borrowed), NULL-ended; owned. */
static char **environment_copy(void)
{
	size_t n = 0;
	char **copy;

	while (environ[n])
		n++;
	copy = xcalloc(n + 1, sizeof *copy);
	memcpy(copy, environ, sizeof *copy * n);
	return copy;
}

/* Sets each NAME=VALUE of add (NULL-ended, or NULL) in the environment. */
static void add_environment(char *const *add)
{
	for (int i = 0; add && add[i]; i++) {
		char *name = xstrdup(add[i]), *eq = strchr(name, '=');

		if (eq) {
			*eq = '\0';
			setenv(name, eq + 1, 1);
		}
		free(name);
	}
}

/* Makes the environment env's strings again: the run's setenv and putenv (and ours) may have
 * moved or freed the array the caller's environ was, but never free a string. */
static void restore_environment(char **env)
{
	clearenv();
	for (int i = 0; env[i]; i++)
		putenv(env[i]);
}

/* Saves what a run may change and sets the run's process: environment, working folder scratch,
 * descriptor 0 on stdin_fd. Returns 0, or -1 with err set (nothing changed). */
static int enter(struct saved *s, const char *scratch, int stdin_fd, char *const *add_env,
		 struct error *err)
{
	const char *locale = setlocale(LC_ALL, NULL);

	memset(s, 0, sizeof *s);
	if ((s->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return error_errno(err, "cannot open the working folder");
	if (chdir(scratch) < 0) {
		close(s->cwd);
		return error_errno(err, "cannot enter %s", scratch);
	}
	s->open_fds = open_descriptors(&s->nfds);
	s->stdin_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	dup2(stdin_fd, 0);
	s->umask = umask(022);
	umask(s->umask);
	s->locale = locale ? xstrdup(locale) : NULL;
	s->out = stdout;
	s->err = stderr;
	s->env = environment_copy();
	add_environment(add_env);
	return 0;
}

/* Puts back what enter saved; closes every descriptor the run left open. */
static void leave_run(struct saved *s)
{
	int n;
	unsigned char *now;

	stdout = s->out;
	stderr = s->err;
	restore_environment(s->env);
	free(s->env);
	if (s->locale)
		setlocale(LC_ALL, s->locale);
	free(s->locale);
	umask(s->umask);
	if (s->stdin_fd >= 0) {
		dup2(s->stdin_fd, 0);
		close(s->stdin_fd);
	} else {
		close(0);
	}
	__fpurge(stdin);
	clearerr_unlocked(stdin); /* a crash may have left its lock held */
	now = open_descriptors(&n);
	for (int fd = 3; fd < n; fd++)
		if (now[fd] && (fd >= s->nfds || !s->open_fds[fd]))
			close(fd);
	free(now);
	free(s->open_fds);
	if (fchdir(s->cwd) < 0)
		(void)!chdir("/");
	close(s->cwd);
}

static ssize_t discard(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

/* Per sink of the run (stdout, stderr): whether the run closed it. The cookies of the sinks. */
static int sink_closed[2];

static int note_closed(void *cookie)
{
	*(int *)cookie = 1;
	return 0;
}

/* Returns a new stream that discards what is written and sets *closed when closed, its functions
 * this file's; without memory, /dev/null, with *closed set so that it is never closed here. */
static FILE *sink(int *closed)
{
	cookie_io_functions_t io = {NULL, discard, NULL, note_closed};
	FILE *f = fopencookie(closed, "w", io);

	*closed = f == NULL;
	return f ? f : fopen("/dev/null", "w");
}

/*
 * Replaces the streams the object's sandbox.c made stdout and stderr as it was loaded (they
 * discard what is written, through functions of the object, which are gone once it is unloaded,
 * while the C library keeps every stream open in its list and flushes them all at exit) by
 * sinks of this file, and closes the object's.
 */
static void own_streams(const struct saved *saved)
{
	FILE *out = stdout, *err = stderr;

	stdout = sink(&sink_closed[0]);
	stderr = sink(&sink_closed[1]);
	if (out != saved->out)
		fclose(out);
	if (err != saved->err)
		fclose(err);
}

/* Closes the sinks the run left open (the C library's list of streams would grow with every run,
 * and fflush(NULL) walks it), after it was unloaded (a destructor may print). */
static void close_sinks(FILE *out, FILE *err)
{
	if (!sink_closed[0])
		fclose(out);
	if (!sink_closed[1])
		fclose(err);
}

static double cpu_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + 1e-6 * (double)tv->tv_usec;
}

/*
 * Unloads handle after a run a signal ended (a crash, the time budget), so that the next run
 * loads it afresh (a loaded object is shared: dlopen would hand back this one, its globals as
 * the crash left them), under the caught signals and one more second of timer; where that
 * fails too (a destructor of the program on its broken state), the object stays loaded.
 */
static void unload_after_signal(void *handle)
{
	struct itimerval second = {{0, 0}, {1, 0}};

	setitimer(ITIMER_REAL, &second, NULL);
	if (sigsetjmp(run_jump, 1) == 0)
		dlclose(handle);
}

/* ---- objects kept loaded ------------------------------------------------------------------- */

/*
 * Loading an object costs more than a short evaluator's run: on djpeg's header evaluator in
 * mantis serve, dlopen and dlclose were a third of a request (mapping, relocating, then
 * unmapping, whose TLB flushes are dear on this kind of virtual machine). So an object is kept
 * loaded between runs where that is as good as loading it afresh: what a run may change of it
 * is its writable data (.data, .bss, past the read-only-after-relocation part), which is copied
 * as loaded (after its constructors) and put back before each later run, and what its
 * constructors allocated or opened (rt/inproc.c's __mantis_inproc_held), of which it must have
 * none, as a run's end gives back everything held. An object with thread-local storage (fresh
 * per load) or without __mantis_inproc_give_back (built before it) is loaded for each run.
 */

#define KEPT 4		/* objects kept loaded at once */
#define KEPT_SEGMENTS 4	/* writable ranges of one object copied */

typedef int entry_fn(int, char **, char **, int *);

/* An object loaded for a run, and kept loaded when it may be. */
struct loaded {
	char *path;			/* its absolute path (owned), NULL for a free entry */
	struct stat st;			/* the file as loaded: a replaced file is loaded afresh */
	void *handle;			/* dlopen's */
	entry_fn *entry;		/* __mantis_inproc_run */
	void (*give_back)(void);	/* __mantis_inproc_give_back, NULL if none */
	int kept;			/* 1: stays loaded after a run that ended */
	int nseg;			/* writable ranges */
	struct {
		char *at;		/* its address in the object */
		size_t size;		/* its bytes */
		char *as_loaded;	/* a copy of them as loaded (owned) */
	} seg[KEPT_SEGMENTS];
	unsigned long used;		/* the last run's number, for the least recently used */
};

static struct loaded kept[KEPT];	/* objects kept loaded */
static unsigned long runs;		/* runs so far */

/* What find_writable looks for and fills. */
struct writable_search {
	uintptr_t base;		/* the object's load address (link map l_addr) */
	struct loaded *l;	/* fills l->seg, l->nseg */
	int tls;		/* set when the object has thread-local storage */
};

/* dl_iterate_phdr's callback: on the object at search->base, each writable PT_LOAD less the
 * pages its PT_GNU_RELRO makes read-only after relocation. */
static int find_writable(struct dl_phdr_info *info, size_t size, void *data)
{
	struct writable_search *search = data;
	uintptr_t relro_end = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);

	(void)size;
	if (info->dlpi_addr != search->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_TLS)
			search->tls = 1;
		if (ph->p_type == PT_GNU_RELRO)
			relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t from = info->dlpi_addr + ph->p_vaddr, to = from + ph->p_memsz;
		struct loaded *l = search->l;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		if (relro_end > from && relro_end < to)
			from = relro_end;
		else if (relro_end >= to)
			continue;
		if (l->nseg == KEPT_SEGMENTS) {
			search->tls = 1; /* too many to keep: load it for each run */
			break;
		}
		l->seg[l->nseg].at = (char *)from;
		l->seg[l->nseg].size = to - from;
		l->seg[l->nseg].as_loaded = xmalloc(to - from);
		memcpy(l->seg[l->nseg].as_loaded, (char *)from, to - from);
		l->nseg++;
	}
	return 1;
}

/* Decides whether l, just loaded, may stay loaded between runs, copying its writable data. */
static void keep_if_possible(struct loaded *l)
{
	size_t (*held)(void);
	struct link_map *map = NULL;
	struct writable_search search = {.l = l};

	*(void **)&l->give_back = dlsym(l->handle, "__mantis_inproc_give_back");
	*(void **)&held = dlsym(l->handle, "__mantis_inproc_held");
	if (!l->give_back || !held || held() != 0 || dlinfo(l->handle, RTLD_DI_LINKMAP, &map) < 0)
		return;
	search.base = map->l_addr;
	dl_iterate_phdr(find_writable, &search);
	l->kept = !search.tls && l->nseg > 0;
}

/* Unloads l (unless after_signal and that fails too) and frees its entry. */
static void forget(struct loaded *l, int after_signal)
{
	if (after_signal)
		unload_after_signal(l->handle);
	else
		dlclose(l->handle);
	for (int i = 0; i < l->nseg; i++)
		free(l->seg[i].as_loaded);
	free(l->path);
	memset(l, 0, sizeof *l);
}

/* Returns so (an absolute path) loaded, its writable data as loaded: a kept object's put back,
 * else loaded now (its constructors run). NULL with err set when it cannot be loaded. */
static struct loaded *load(const char *so, struct error *err)
{
	struct stat st;
	struct loaded *l = NULL;

	if (stat(so, &st) < 0) {
		error_errno(err, "cannot load %s", so);
		return NULL;
	}
	for (int i = 0; i < KEPT; i++) {
		struct loaded *k = &kept[i];

		if (!k->path || strcmp(k->path, so) != 0)
			continue;
		if (k->st.st_ino == st.st_ino && k->st.st_dev == st.st_dev &&
		    k->st.st_size == st.st_size && k->st.st_mtim.tv_sec == st.st_mtim.tv_sec &&
		    k->st.st_mtim.tv_nsec == st.st_mtim.tv_nsec) {
			for (int j = 0; j < k->nseg; j++)
				memcpy(k->seg[j].at, k->seg[j].as_loaded, k->seg[j].size);
			k->used = ++runs;
			return k;
		}
		forget(k, 0); /* the file was replaced */
	}
	for (int i = 0; i < KEPT; i++) /* a free entry, else the least recently used */
		if (!l || !kept[i].path || (l->path && kept[i].used < l->used))
			l = &kept[i];
	if (l->path)
		forget(l, 0);
	if (!(l->handle = dlopen(so, RTLD_NOW | RTLD_LOCAL))) {
		error_set(err, "cannot load %s: %s", so, dlerror());
		return NULL;
	}
	if (!(*(void **)&l->entry = dlsym(l->handle, "__mantis_inproc_run"))) {
		error_set(err, "cannot load %s: %s", so, dlerror());
		dlclose(l->handle);
		l->handle = NULL;
		return NULL;
	}
	l->path = xstrdup(so);
	l->st = st;
	l->used = ++runs;
	keep_if_possible(l);
	return l;
}

/* After a run of l that ended: gives back what it left and keeps l loaded, or unloads it
 * (whose last destructor gives back what it left: rt/inproc.c). */
static void done(struct loaded *l)
{
	if (l->kept)
		l->give_back();
	else
		forget(l, 0);
}

/* The run itself, between enter and leave_run: dlopen, the call, dlclose, under the caught
 * signals and the timer. Fills res's status and CPU times. Returns 0, or -1 with err set when the
 * object cannot be loaded. */
static int call(const char *so, char **argv, double timeout, const struct saved *saved,
		struct run_result *res, struct error *err)
{
	struct itimerval timer = {{0, 0}, {(time_t)timeout, (suseconds_t)(1e6 * (timeout -
										   (double)(time_t)timeout))}};
	struct rusage r0, r1;
	struct loaded *volatile running = NULL;
	volatile int sig = 0, status = 0, rc = 0;
	int argc = 0, ended;

	while (argv[argc])
		argc++;
	catch_signals();
	run_signal = 0;
	getrusage(RUSAGE_THREAD, &r0);
#ifdef SOLIB_LSAN
	__lsan_disable(); /* what the run leaves allocated is the run's, not a leak of mantis */
#endif
	if (sigsetjmp(run_jump, 1) == 0) {
		int ended_by = 0;

		in_run = 1;
		if (timeout > 0)
			setitimer(ITIMER_REAL, &timer, NULL);
		if (!(running = load(so, err))) {
			rc = -1;
		} else {
			FILE *sink_out, *sink_err;

			own_streams(saved);
			sink_out = stdout;
			sink_err = stderr;
			status = running->entry(argc, argv, environ, &ended_by);
			sig = ended_by;
			fflush(NULL); /* the run's streams, into their memory files */
			done(running); /* the run's blocks and streams given back (rt/inproc.c) */
			running = NULL;
			close_sinks(sink_out, sink_err);
		}
	}
	ended = run_signal;
	if (running)
		forget(running, 1);
	setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL);
	in_run = 0;
#ifdef SOLIB_LSAN
	__lsan_enable();
#endif
	getrusage(RUSAGE_THREAD, &r1);
	res->user = cpu_seconds(&r1.ru_utime) - cpu_seconds(&r0.ru_utime);
	res->sys = cpu_seconds(&r1.ru_stime) - cpu_seconds(&r0.ru_stime);
	res->exit_code = -1;
	if (ended == SIGALRM) {
		res->status = RUN_TIMEOUT;
		res->signal = SIGKILL;
	} else if (ended || sig) {
		res->status = RUN_CRASH;
		res->signal = ended ? ended : sig;
	} else {
		uint64_t ok = runner_ok_exits();

		res->exit_code = status;
		res->status = status == 0 || (status < 64 && (ok >> status & 1)) ? RUN_OK
										    : RUN_NONZERO;
	}
	return rc;
}

/* Returns so's canonical absolute path (owned by the caller), or NULL with errno set. An
 * absolute so's is kept for its next run: a predictor's object is run again and again, and
 * realpath's call per folder of its path were 4 of a trivial run's 52 system calls. */
static char *canonical(const char *so)
{
	static char *last_so, *last_path; /* the last absolute so and its canonical path */
	char *path;

	if (last_so && strcmp(so, last_so) == 0)
		return xstrdup(last_path);
	if (!(path = realpath(so, NULL)) || so[0] != '/')
		return path;
	free(last_so);
	free(last_path);
	last_so = xstrdup(so);
	last_path = xstrdup(path);
	return path;
}

int solib_run(const char *so, const struct input *in, const struct run_options *opt,
	      struct run_result *res, struct error *err)
{
	const char *parent = opt->scratch_parent ? opt->scratch_parent : getenv("TMPDIR");
	char *scratch, *so_abs, **argv;
	struct saved saved;
	double t0;
	int stdin_fd, rc;

	memset(res, 0, sizeof *res);
	if (!(so_abs = canonical(so)))
		return error_errno(err, "cannot run %s", so);
	stdin_fd = open(in->stdin_path ? in->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (stdin_fd < 0) {
		free(so_abs);
		return error_errno(err, "cannot open %s for stdin",
				   in->stdin_path ? in->stdin_path : "/dev/null");
	}
	scratch = opt->workdir ? xstrdup(opt->workdir)
			       : xasprintf("%s/mantis-run-XXXXXX", parent && *parent ? parent : "/tmp");
	if (!opt->workdir && !mkdtemp(scratch)) {
		rc = error_errno(err, "cannot make a scratch folder %s", scratch);
		goto out;
	}
	argv = runner_argv(so_abs, opt->argv0, in, scratch);
	t0 = now_seconds();
	if ((rc = enter(&saved, scratch, stdin_fd, opt->env, err)) == 0) {
		rc = call(so_abs, argv, opt->timeout, &saved, res, err);
		leave_run(&saved);
	}
	res->wall = now_seconds() - t0; /* what hosting costs: the setting up and putting back too */
	runner_free_argv(argv);
	if (!opt->workdir)
		remove_tree(scratch);
out:
	close(stdin_fd);
	free(scratch);
	free(so_abs);
	return rc;
}
