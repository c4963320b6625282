mantis model: fit a model from a CSV and print it in original units.

exact.csv holds wall = 2 + 3 a b exactly, beside an unrelated feature c:

  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1
  wall = 2 + 3 * a * b
  
  algorithm   spore-foba (relative least squares, degree <= 3)
  features    2 of 3: 0 constant, 0 copies of others, 0 excluded, 3 kept
    a                                        [1, 8]
    b                                        [1, 9]
  train MRE   0.00% on 32 samples
  wrote       model.json
  $ python3 -c 'import json; m = json.load(open("model.json")); print(m["metric"], [t["powers"] for t in m["terms"]], round(m["terms"][0]["coef"], 9), round(m["intercept"], 9))'
  wall [{'a': 1, 'b': 1}] 3.0 2.0

The same model without the interaction available to it: Mantis-linear cannot be exact.

  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1 --algo linear -o - | sed -n 3p
  algorithm   linear (relative least squares, degree <= 1)

The rate learner instead: wall as a column positive on every row (a here; a file size where
there is one) times the rate, wall over a, of the rows nearest in the features forward
selection chose under leave-one-out (b). The intercept, which a does not scale, makes the
rate of rows alike in b fall as a grows: the rate's slope in log a, read off the like pairs
among the 3 nearest rows, takes that up in part (without it the rows erred 4.94%), but not
all, even on the rows it was fitted on. A time's rate is bagged: its log rate is the mean of
that choice's and those of 16 more, each made on a bootstrap of the rows (which near-tied
features a noisy time picks is itself noise):

  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1 --algo rate -o - | sed -n '1p;3p;7p'
  wall = a * rate(b; the 1 nearest of 32, sloped in log a by the 3 nearest, averaged with 16 choices on bootstraps)
  algorithm   rate (the 1 nearest of 32 training rows in 1 feature, with a slope in the log scale, chosen under leave-one-out; its log rate averaged with 16 chosen on bootstraps of the rows)
  train MRE   1.51% on 32 samples

The model's size chosen by cross-validation instead of FoBa's own rule:

  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1 --cv 4 -o - | sed -n '1p;3p'
  wall = 2 + 3 * a * b
  algorithm   spore-foba (relative least squares, degree <= 3, size chosen by 4-fold cross-validation)

Excluding a feature the model needs:

  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1 --exclude b -o - | grep -E '^(features|  [abc] )'
  features    1 of 3: 0 constant, 0 copies of others, 1 excluded, 2 kept
    a                                        [1, 8]
  $ mantis model "$TESTDIR/data/exact.csv" --exclude nope -o -
  mantis: */exact.csv: --exclude: no feature named 'nope' (glob)
  [1]

Usage errors exit 2 and name the option:

  $ mantis model
  mantis model: no data file given
  See 'mantis help model'.
  [2]
  $ mantis model x.csv --algo magic
  mantis model: --algo: unknown algorithm 'magic'
  See 'mantis help model'.
  [2]
  $ mantis model x.csv --degree 9
  mantis model: --degree: '9' is not a number from 1 to 6
  See 'mantis help model'.
  [2]
  $ mantis model x.csv --cv 1
  mantis model: --cv: '1' is not a number from 2 to 100
  See 'mantis help model'.
  [2]
  $ mantis model x.csv --fit wrong
  mantis model: --fit: 'wrong' is not relative or absolute
  See 'mantis help model'.
  [2]
  $ mantis model x.csv --bogus
  mantis model: unknown option '--bogus'
  See 'mantis help model'.
  [2]

Bad data exits 1 and says where:

  $ printf 'a,wall\n1,2\n2,x\n' > bad.csv
  $ mantis model bad.csv
  mantis: bad.csv:3: column 'wall': 'x' is not a finite number
  [1]
  $ mantis model missing.csv
  mantis: cannot open missing.csv: No such file or directory
  [1]

A predictor's model is never overwritten: in a folder mantis train wrote (predictor.json beside
model.json), the default output is refused, and so is naming it; -o elsewhere works:

  $ mkdir pred && echo '{}' > pred/predictor.json && echo kept > pred/model.json
  $ cd pred && mantis model "$TESTDIR/data/exact.csv" --train-frac 1 > /dev/null
  mantis: model.json is a predictor's model (predictor.json is beside it); write this one elsewhere with -o FILE
  [1]
  $ cd .. && mantis model "$TESTDIR/data/exact.csv" --train-frac 1 -o pred/model.json > /dev/null
  mantis: pred/model.json is a predictor's model (predictor.json is beside it); write this one elsewhere with -o FILE
  [1]
  $ cat pred/model.json
  kept
  $ mantis model "$TESTDIR/data/exact.csv" --train-frac 1 -o pred/other.json | tail -1
  wrote       pred/other.json
