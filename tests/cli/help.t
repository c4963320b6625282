The command line: help, version, exit codes, and errors that say what is wrong.

  $ mantis --version
  mantis 0.1.0

LLVM and the other libraries are linked in, not loaded: every command is a process of its own
(mantis cc one a compile), and loading libLLVM-14.so cost 70 ms a start, SQLite, LAPACK and the
C++ runtime 8 ms more (Makefile, LIBS). Only the C library's are loaded; the ASan build (which
exports __asan_init) links LLVM alone so, the sanitizer's interceptors being for shared ones:

  $ libs='libLLVM|libstdc|libsqlite|liblapack|libgfortran'
  $ if nm -D --defined-only "$(command -v mantis)" | grep -qw __asan_init; then libs=libLLVM; fi
  $ ldd "$(command -v mantis)" | grep -cE "$libs"
  0
  [1]

  $ mantis help
  usage: mantis <command> [options]
         mantis --version
  
  mantis predicts how long a C program will take on an input, before running it,
  and tells which loops and input properties drive its run time.
  
  Commands:
     cc           compile like clang-14 and record bitcode, for CC= in make builds
     instrument   build a program's original and feature-counting versions
     features     run an instrumented build on one input and print its features
     count        count a run's executed instructions per function, opcode and library call
     profile      run a build on many inputs, measure it, and keep every run
     export       write a profile as CSV or JSON, one row per complete input
     model        fit a sparse polynomial model of a metric from feature data
     slice        build feature evaluators (executable slices), validate them, measure their cost
     explore      measure a program at adaptively chosen parameter values and infer its performance function
     train        train a predictor: instrument, profile, model, slice, reject expensive features
     predict      predict a program's metric on an input without running the program
     serve        predict one input after another, read on stdin, answering each in JSON
     eval         measure a predictor's error and cost on inputs, beside the noise floor
     calibrate    measure a platform's cost per instruction class and library call
     report       write a predictor's report: one HTML page with its model, errors and costs
     export-c     write a predictor as one C file: double NAME_predict(int argc, char **argv)
     help         show the commands, or one command's options
  
  'mantis help COMMAND' or 'mantis COMMAND --help' shows a command's options.
  Exit codes: 0 ok, 1 the work failed, 2 usage error.

--help means help, wherever it is asked for:

  $ mantis --help | head -1
  usage: mantis <command> [options]
  $ mantis help help
  usage: mantis help [COMMAND]
  
  Without COMMAND, lists the commands. With COMMAND, prints its options.
  $ mantis help --help | head -1
  usage: mantis help [COMMAND]

Usage errors exit 2 and say what is wrong:

  $ mantis
  usage: mantis <command> [options]
  See 'mantis help'.
  [2]
  $ mantis frobnicate
  mantis: 'frobnicate' is not a mantis command. See 'mantis help'.
  [2]
  $ mantis --frobnicate
  mantis: unknown option '--frobnicate'
  See 'mantis help'.
  [2]
  $ mantis help frobnicate
  mantis help: 'frobnicate' is not a mantis command. See 'mantis help'.
  [2]
  $ mantis help a b
  mantis help: too many arguments
  See 'mantis help help'.
  [2]
