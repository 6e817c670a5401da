"""Validate and score on a Dask cluster (the optional extra ``evalscore[dask]``).

``cluster`` says where the work runs (a scheduler's address, or a LocalCluster started for one
command); ``judging`` cuts the inputs into tasks, sends each to a worker and hands the results back
in input order, to be merged by the same code the single-process path uses.
"""
