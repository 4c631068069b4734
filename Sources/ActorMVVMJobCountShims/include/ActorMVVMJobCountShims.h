#ifndef ACTORMVVM_JOB_COUNT_SHIMS_H
#define ACTORMVVM_JOB_COUNT_SHIMS_H

/// Which of the job count's counting executors is running a job on this
/// thread right now: 0 none, 1 the global pool, 2 the main actor. Set
/// around each job the executors run; read by the self-check's probes,
/// which so learn, from inside a job, whether the job came through the
/// counting path.
int actormvvm_quiescence_running_path(void);
void actormvvm_quiescence_set_running_path(int path);

#endif
