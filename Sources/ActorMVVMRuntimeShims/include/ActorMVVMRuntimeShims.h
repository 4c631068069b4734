#ifndef ACTORMVVM_RUNTIME_SHIMS_H
#define ACTORMVVM_RUNTIME_SHIMS_H

#include "ActorMVVMAtomics.h"
#include "ActorMVVMLock.h"

#endif
