/*
 * error.c - RCCE's error strings and debug switches.
 */
#include <string.h>

#include "internal.h"

/* At most RCCE_MAX_ERROR_STRING - 1 characters each. */
static const char *const strings[] = {
    "Success",
    "Invalid target buffer",
    "Invalid source buffer",
    "Invalid UE ID",
    "Invalid message length",
    "Flag variable undefined",
    "Emulated NUEs do not match requested NUEs",
    "Message buffers overlap in comm buffer",
    "Data buffer misalignment",
    "Debug flag not defined",
    "RCCE_flag variable not inside comm buffer",
    "Flag status not defined",
    "Flag not allocated",
    "Value not defined",
    "Invalid error code",
    "RPC data structure not allocated",
    "RPC internal error",
    "Multiple outstanding RPC requests",
    "Invalid power step",
    "Maximum allowable frequency exceeded",
    "No active RPC request",
    "Stale RPC request",
    "Communicator undefined",
    "Illegal reduction operator",
    "Illegal data type",
    "Memory allocation error",
    "Communicator initialization error",
    "Core not in the UE list",
    "Multicast is not supported",
};
#define NSTRINGS (int)(sizeof strings / sizeof strings[0])

int RCCE_error_string(int err, char *string, int *length)
{
    int i = err == RCCE_SUCCESS ? 0 : err - RCCE_ERROR_BASE;

    if (i < 0 || i >= NSTRINGS) {
        if (string)
            string[0] = '\0';
        if (length)
            *length = 0;
        return RCCE_ERROR_INVALID_ERROR_CODE;
    }
    if (string)
        strcpy(string, strings[i]);
    if (length)
        *length = (int)strlen(strings[i]);
    return RCCE_SUCCESS;
}

int scc_error(int code)
{
    if (scc_self.debug && code > 0) {
        char s[RCCE_MAX_ERROR_STRING];
        RCCE_error_string(code, s, NULL);
        fprintf(STDERR, "Error on UE %d: %s\n", scc_self.iam, s);
    }
    return code;
}

int RCCE_debug_set(int flag)
{
    switch (flag) {
    case RCCE_DEBUG_ALL: case RCCE_DEBUG_SYNCH: case RCCE_DEBUG_COMM:
    case RCCE_DEBUG_RPC: case RCCE_DEBUG_DEBUG:
        scc_self.debug = 1;
        return RCCE_SUCCESS;
    }
    return scc_error(RCCE_ERROR_DEBUG_FLAG);
}

int RCCE_debug_unset(int flag)
{
    switch (flag) {
    case RCCE_DEBUG_ALL: case RCCE_DEBUG_SYNCH: case RCCE_DEBUG_COMM:
    case RCCE_DEBUG_RPC: case RCCE_DEBUG_DEBUG:
        scc_self.debug = 0;
        return RCCE_SUCCESS;
    }
    return scc_error(RCCE_ERROR_DEBUG_FLAG);
}
