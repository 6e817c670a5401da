"""Where documents are judged: in this process, on forked workers sharing a long JSONL file, or on a
Dask cluster (the optional extra ``evalscore[dask]``).

``pipeline`` walks the inputs and hands each document to a judge (``validation`` checks one document,
``scoring`` scores one run); ``parallel`` is the fork pool; ``cluster`` says where Dask work runs (a
scheduler's address, or a LocalCluster started for one command) and ``judging`` cuts the inputs into
tasks, sends each to a worker and hands the results back in input order, to be merged by the same
code the single-process path uses; ``guarded_reading`` is what all of them share: a bug met while
reading one input ends that input, not the command.
"""
