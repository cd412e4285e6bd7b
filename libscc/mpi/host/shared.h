/*
 * shared.h - what scc-mpiexec reads of the file a host run's ranks share
 * (proc.c lays it out; tools/scc/machine/mpirun.py reads these numbers
 * from this file): one wake-up record per core at the file's start, whose
 * first word counts the writes to that core's MPB lines. A run whose
 * counters stand still while its ranks use no CPU is deadlocked; one whose
 * counters move is only slow (a host with its CPUs taken by others).
 */
#ifndef SCC_MPI_HOST_SHARED_H
#define SCC_MPI_HOST_SHARED_H

#define SCC_MPI_HOST_CORES   48     /* wake-up records, one per core */
#define SCC_MPI_WAKE_STRIDE  64     /* bytes from one record to the next */

#endif
