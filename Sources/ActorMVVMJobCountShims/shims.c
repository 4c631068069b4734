#include "ActorMVVMJobCountShims.h"

// One per thread: a job runs to its end on the thread that started it, so
// the value set before a job and reset after it is the job's alone.
static _Thread_local int running_path = 0;

int actormvvm_quiescence_running_path(void) { return running_path; }
void actormvvm_quiescence_set_running_path(int path) { running_path = path; }
