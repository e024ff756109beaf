// The system's sqlite3.h, for the benchmark's hand-written raw sqlite3 implementations.
#include <sqlite3.h>

// SQLITE_TRANSIENT / SQLITE_STATIC are macros casting integers to function pointers,
// which Swift cannot import.
static inline sqlite3_destructor_type csqlitebench_transient(void) { return (sqlite3_destructor_type)-1; }
static inline sqlite3_destructor_type csqlitebench_static(void) { return (sqlite3_destructor_type)0; }

// Callgrind client requests, so that `Benchmarks/instructions.sh` can count the instructions of
// each timed run alone. Outside valgrind they are a few no-op instructions. Without valgrind's
// headers (package valgrind) they compile to nothing and the script says so.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
static inline int csqlitebench_has_callgrind(void) { return 1; }
static inline int csqlitebench_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
/// Starts counting (valgrind runs with --instr-atstart=no, so setup runs uninstrumented).
static inline void csqlitebench_callgrind_begin(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
/// Writes what was counted since the last begin, under `label`, and stops counting.
static inline void csqlitebench_callgrind_end(const char *label) { CALLGRIND_DUMP_STATS_AT(label); CALLGRIND_STOP_INSTRUMENTATION; }
#else
static inline int csqlitebench_has_callgrind(void) { return 0; }
static inline int csqlitebench_running_on_valgrind(void) { return 0; }
static inline void csqlitebench_callgrind_begin(void) {}
static inline void csqlitebench_callgrind_end(const char *label) { (void)label; }
#endif

// Heap bytes in use, over every malloc arena (glibc's mallinfo2), for the memory workload.
#include <malloc.h>
static inline size_t csqlitebench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// Core affinity for every thread of the process, so that the harness can run each round of a
// fetch workload on one core (see `CorePinning.swift`). Raw system calls with a plain bit mask of 1,024
// cores: the `CPU_SET` macros need _GNU_SOURCE, which an imported header cannot define.
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#define CSQLITEBENCH_CORE_MASK_WORDS 16
/// Writes the cores this thread may run on into `mask` (16 words); 0 on success, else -1.
static inline int csqlitebench_allowed_cores(unsigned long *mask) {
    memset(mask, 0, sizeof(unsigned long) * CSQLITEBENCH_CORE_MASK_WORDS);
    return syscall(SYS_sched_getaffinity, 0, sizeof(unsigned long) * CSQLITEBENCH_CORE_MASK_WORDS, mask) < 0 ? -1 : 0;
}
/// Lets every thread of this process run only on the cores in `mask` (16 words). Threads started
/// later inherit their creator's mask. Returns how many running threads refused, or -1 when the
/// threads cannot be listed.
static inline int csqlitebench_restrict_all_threads(const unsigned long *mask) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return -1;
    int refused = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        long thread = strtol(entry->d_name, NULL, 10);
        if (syscall(SYS_sched_setaffinity, thread, sizeof(unsigned long) * CSQLITEBENCH_CORE_MASK_WORDS, mask) != 0 && errno != ESRCH) refused += 1;  // ESRCH: the thread has ended
    }
    closedir(tasks);
    return refused;
}
