#ifndef ACTORMVVM_TESTING_BOOT_H
#define ACTORMVVM_TESTING_BOOT_H

/// Whether the load-time constructor below ran and installed the job count.
int actormvvm_testing_booted(void);


#endif
