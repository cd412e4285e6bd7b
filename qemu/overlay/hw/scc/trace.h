#include "trace/trace-hw_scc.h"
