/*
 * ircce_waitlist.c - iRCCE's wait lists: test or wait for all or any of a
 * set of requests. As in iRCCE, each entry is a small heap block, freed
 * when its request completes and leaves the list.
 */
#include "internal.h"

void iRCCE_init_wait_list(iRCCE_WAIT_LIST *list)
{
    list->first = NULL;
    list->last = NULL;
}

static void add(iRCCE_WAIT_LIST *list, int type, void *req)
{
    iRCCE_WAIT_LISTELEM *e = malloc(sizeof *e);

    if (!e) {
        scc_error(RCCE_ERROR_MALLOC);
        return;
    }
    e->type = type;
    e->req = req;
    e->next = NULL;
    if (list->last)
        list->last->next = e;
    else
        list->first = e;
    list->last = e;
}

void iRCCE_add_send_to_wait_list(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST *r)
{
    add(list, iRCCE_WAIT_LIST_SEND_TYPE, r);
}

void iRCCE_add_recv_to_wait_list(iRCCE_WAIT_LIST *list, iRCCE_RECV_REQUEST *r)
{
    add(list, iRCCE_WAIT_LIST_RECV_TYPE, r);
}

void iRCCE_add_to_wait_list(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST *s,
                            iRCCE_RECV_REQUEST *r)
{
    if (s)
        add(list, iRCCE_WAIT_LIST_SEND_TYPE, s);
    if (r)
        add(list, iRCCE_WAIT_LIST_RECV_TYPE, r);
}

static int done(const iRCCE_WAIT_LISTELEM *e)
{
    if (e->type == iRCCE_WAIT_LIST_SEND_TYPE)
        return ((iRCCE_SEND_REQUEST *)e->req)->finished;
    return ((iRCCE_RECV_REQUEST *)e->req)->finished;
}

/* Take the first finished entry off the list; NULL if none. The caller
 * frees it. */
static iRCCE_WAIT_LISTELEM *take_done(iRCCE_WAIT_LIST *list)
{
    iRCCE_WAIT_LISTELEM *prev = NULL, *e;

    for (e = list->first; e && !done(e); e = e->next)
        prev = e;
    if (!e)
        return NULL;
    if (prev)
        prev->next = e->next;
    else
        list->first = e->next;
    if (list->last == e)
        list->last = prev;
    return e;
}

int iRCCE_test_all(iRCCE_WAIT_LIST *list, int *test)
{
    iRCCE_WAIT_LISTELEM *e;
    int moved = scc_progress();

    while ((e = take_done(list)) != NULL) {
        free(e);
        moved = 1;
    }
    scc_idle(moved || !list->first);
    if (test)
        *test = !list->first;
    return list->first ? iRCCE_PENDING : iRCCE_SUCCESS;
}

int iRCCE_wait_all(iRCCE_WAIT_LIST *list)
{
    while (iRCCE_test_all(list, NULL) != iRCCE_SUCCESS)
        ;   /* test_all waits a little when nothing moved */
    return iRCCE_SUCCESS;
}

int iRCCE_test_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **s,
                   iRCCE_RECV_REQUEST **r)
{
    iRCCE_WAIT_LISTELEM *e;

    if (s)
        *s = NULL;
    if (r)
        *r = NULL;
    int moved = scc_progress();
    e = take_done(list);
    scc_idle(moved || e || !list->first);
    if (!e)
        return iRCCE_PENDING;
    if (e->type == iRCCE_WAIT_LIST_SEND_TYPE) {
        if (s)
            *s = e->req;
    } else if (r) {
        *r = e->req;
    }
    free(e);
    return iRCCE_SUCCESS;
}

int iRCCE_wait_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **s,
                   iRCCE_RECV_REQUEST **r)
{
    if (!list->first)
        return iRCCE_ERROR;     /* nothing would ever complete */
    while (iRCCE_test_any(list, s, r) != iRCCE_SUCCESS)
        ;   /* test_any waits a little when nothing moved */
    return iRCCE_SUCCESS;
}
