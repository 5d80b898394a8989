// CPU affinity and thread ids for the tests' threads: cpu_set_t's macros, sched_setaffinity(2) and gettid(2) need
// _GNU_SOURCE.
#define _GNU_SOURCE 1

#include "CVigilTestSupport.h"

#include <sched.h>
#include <unistd.h>

int vigil_test_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}

int vigil_test_pin_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

int vigil_test_thread_id(void) { return (int)gettid(); }
