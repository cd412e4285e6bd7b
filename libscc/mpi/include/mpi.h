/*
 * mpi.h - MPI on libscc (libscc/mpi, docs/mpi.md): the MPI-3.1 C names
 * this library implements, and only those, so that a program needing
 * another fails to build rather than misbehave.
 */
#ifndef SCC_MPI_H
#define SCC_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION    3
#define MPI_SUBVERSION 1

typedef struct mpi_comm_s       *MPI_Comm;
typedef struct mpi_group_s      *MPI_Group;
typedef struct mpi_type_s       *MPI_Datatype;
typedef struct mpi_op_s         *MPI_Op;
typedef struct mpi_request_s    *MPI_Request;
typedef struct mpi_errhandler_s *MPI_Errhandler;
typedef struct mpi_info_s       *MPI_Info;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Count;
typedef long long MPI_Offset;
typedef int MPI_Fint;

typedef struct MPI_Status {
    int MPI_SOURCE, MPI_TAG, MPI_ERROR;
    int mpi_cancelled;
    long long mpi_bytes;            /* bytes received */
} MPI_Status;

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *type);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *err, ...);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval, void *attribute_val,
                                          void *extra_state);
/* MPI-1's names (deprecated.c) */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
typedef MPI_Comm_errhandler_function MPI_Handler_function;

/* predefined objects: addresses of the library's own */
extern struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;
extern struct mpi_group_s mpi_group_empty_;
extern struct mpi_errhandler_s mpi_errors_fatal_, mpi_errors_return_;
#define MPI_COMM_WORLD       (&mpi_comm_world_)
#define MPI_COMM_SELF        (&mpi_comm_self_)
#define MPI_COMM_NULL        ((MPI_Comm)0)
#define MPI_GROUP_EMPTY      (&mpi_group_empty_)
#define MPI_GROUP_NULL       ((MPI_Group)0)
#define MPI_DATATYPE_NULL    ((MPI_Datatype)0)
#define MPI_OP_NULL          ((MPI_Op)0)
#define MPI_REQUEST_NULL     ((MPI_Request)0)
#define MPI_ERRHANDLER_NULL  ((MPI_Errhandler)0)
#define MPI_INFO_NULL        ((MPI_Info)0)
#define MPI_ERRORS_ARE_FATAL (&mpi_errors_fatal_)
#define MPI_ERRORS_RETURN    (&mpi_errors_return_)

/* datatypes: the library's k-th predefined type object (datatype.c) */
extern unsigned char mpi_types_[];
#define MPI_OBJ_STRIDE_ 256
#define MPI_TYPE_(k) ((MPI_Datatype)(void *)(mpi_types_ + (k) * MPI_OBJ_STRIDE_))
#define MPI_CHAR               MPI_TYPE_(0)
#define MPI_SIGNED_CHAR        MPI_TYPE_(1)
#define MPI_UNSIGNED_CHAR      MPI_TYPE_(2)
#define MPI_BYTE               MPI_TYPE_(3)
#define MPI_SHORT              MPI_TYPE_(4)
#define MPI_UNSIGNED_SHORT     MPI_TYPE_(5)
#define MPI_INT                MPI_TYPE_(6)
#define MPI_UNSIGNED           MPI_TYPE_(7)
#define MPI_LONG               MPI_TYPE_(8)
#define MPI_UNSIGNED_LONG      MPI_TYPE_(9)
#define MPI_LONG_LONG_INT      MPI_TYPE_(10)
#define MPI_LONG_LONG          MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG MPI_TYPE_(11)
#define MPI_FLOAT              MPI_TYPE_(12)
#define MPI_DOUBLE             MPI_TYPE_(13)
#define MPI_LONG_DOUBLE        MPI_TYPE_(14)
#define MPI_WCHAR              MPI_TYPE_(15)
#define MPI_C_BOOL             MPI_TYPE_(16)
#define MPI_INT8_T             MPI_TYPE_(17)
#define MPI_INT16_T            MPI_TYPE_(18)
#define MPI_INT32_T            MPI_TYPE_(19)
#define MPI_INT64_T            MPI_TYPE_(20)
#define MPI_UINT8_T            MPI_TYPE_(21)
#define MPI_UINT16_T           MPI_TYPE_(22)
#define MPI_UINT32_T           MPI_TYPE_(23)
#define MPI_UINT64_T           MPI_TYPE_(24)
#define MPI_AINT               MPI_TYPE_(25)
#define MPI_COUNT              MPI_TYPE_(26)
#define MPI_OFFSET             MPI_TYPE_(27)
#define MPI_PACKED             MPI_TYPE_(28)
#define MPI_FLOAT_INT          MPI_TYPE_(29)
#define MPI_DOUBLE_INT         MPI_TYPE_(30)
#define MPI_LONG_INT           MPI_TYPE_(31)
#define MPI_2INT               MPI_TYPE_(32)
#define MPI_SHORT_INT          MPI_TYPE_(33)
#define MPI_LONG_DOUBLE_INT    MPI_TYPE_(34)
#define MPI_C_FLOAT_COMPLEX    MPI_TYPE_(35)
#define MPI_C_DOUBLE_COMPLEX   MPI_TYPE_(36)
#define MPI_C_LONG_DOUBLE_COMPLEX MPI_TYPE_(37)
#define MPI_COMPLEX            MPI_TYPE_(38)    /* Fortran's COMPLEX, DOUBLE COMPLEX */
#define MPI_DOUBLE_COMPLEX     MPI_TYPE_(39)
#define MPI_LB                 MPI_TYPE_(40)    /* MPI-1's markers (deprecated) */
#define MPI_UB                 MPI_TYPE_(41)
#define MPI_C_COMPLEX          MPI_TYPE_(42)    /* MPI_C_FLOAT_COMPLEX's synonym */
#define MPI_CXX_BOOL           MPI_TYPE_(43)
#define MPI_CXX_FLOAT_COMPLEX  MPI_TYPE_(44)
#define MPI_CXX_DOUBLE_COMPLEX MPI_TYPE_(45)
#define MPI_CXX_LONG_DOUBLE_COMPLEX MPI_TYPE_(46)
/* Fortran's optional sized types: not supported (the standard's NULL) */
#define MPI_REAL4     MPI_DATATYPE_NULL
#define MPI_REAL8     MPI_DATATYPE_NULL
#define MPI_REAL16    MPI_DATATYPE_NULL
#define MPI_COMPLEX8  MPI_DATATYPE_NULL
#define MPI_COMPLEX16 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
#define MPI_INTEGER1  MPI_DATATYPE_NULL
#define MPI_INTEGER2  MPI_DATATYPE_NULL
#define MPI_INTEGER4  MPI_DATATYPE_NULL
#define MPI_INTEGER8  MPI_DATATYPE_NULL
#define MPI_INTEGER16 MPI_DATATYPE_NULL

extern unsigned char mpi_ops_[];
#define MPI_OP_(k) ((MPI_Op)(void *)(mpi_ops_ + (k) * MPI_OBJ_STRIDE_))
#define MPI_MAX     MPI_OP_(0)
#define MPI_MIN     MPI_OP_(1)
#define MPI_SUM     MPI_OP_(2)
#define MPI_PROD    MPI_OP_(3)
#define MPI_LAND    MPI_OP_(4)
#define MPI_BAND    MPI_OP_(5)
#define MPI_LOR     MPI_OP_(6)
#define MPI_BOR     MPI_OP_(7)
#define MPI_LXOR    MPI_OP_(8)
#define MPI_BXOR    MPI_OP_(9)
#define MPI_MAXLOC  MPI_OP_(10)
#define MPI_MINLOC  MPI_OP_(11)
#define MPI_REPLACE MPI_OP_(12)
#define MPI_NO_OP   MPI_OP_(13)

#define MPI_PROC_NULL   (-1)
#define MPI_ANY_SOURCE  (-2)
#define MPI_ROOT        (-3)
#define MPI_ANY_TAG     (-1)
#define MPI_UNDEFINED   (-32766)
#define MPI_TAG_UB_VALUE 0x7fffffff
#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_IN_PLACE    ((void *)-1)
#define MPI_BOTTOM      ((void *)0)
#define MPI_MAX_PROCESSOR_NAME       128
#define MPI_MAX_ERROR_STRING         256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_OBJECT_NAME          128
#define MPI_MAX_INFO_KEY             255
#define MPI_MAX_INFO_VAL             1024
#define MPI_BSEND_OVERHEAD           64

#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

#define MPI_COMM_TYPE_SHARED 1

#define MPI_COMBINER_NAMED         1
#define MPI_COMBINER_DUP           2
#define MPI_COMBINER_CONTIGUOUS    3
#define MPI_COMBINER_VECTOR        4
#define MPI_COMBINER_HVECTOR       5
#define MPI_COMBINER_INDEXED       6
#define MPI_COMBINER_HINDEXED      7
#define MPI_COMBINER_INDEXED_BLOCK 8
#define MPI_COMBINER_STRUCT        9
#define MPI_COMBINER_RESIZED       10
#define MPI_COMBINER_HINDEXED_BLOCK 11
#define MPI_COMBINER_SUBARRAY      12
/* constructors this library lacks (Fortran's, darray): names only */
#define MPI_COMBINER_HVECTOR_INTEGER  13
#define MPI_COMBINER_HINDEXED_INTEGER 14
#define MPI_COMBINER_STRUCT_INTEGER   15
#define MPI_COMBINER_DARRAY        16
#define MPI_COMBINER_F90_REAL      17
#define MPI_COMBINER_F90_COMPLEX   18
#define MPI_COMBINER_F90_INTEGER   19

#define MPI_ORDER_C       56
#define MPI_ORDER_FORTRAN 57

#define MPI_TYPECLASS_REAL    1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

#define MPI_KEYVAL_INVALID   (-1)
#define MPI_TAG_UB           1
#define MPI_HOST             2
#define MPI_IO               3
#define MPI_WTIME_IS_GLOBAL  4
#define MPI_UNIVERSE_SIZE    5
#define MPI_APPNUM           6
#define MPI_LASTUSEDCODE     7

#define MPI_CART       1
#define MPI_GRAPH      2
#define MPI_DIST_GRAPH 3

/* error classes (= codes) */
#define MPI_SUCCESS          0
#define MPI_ERR_BUFFER       1
#define MPI_ERR_COUNT        2
#define MPI_ERR_TYPE         3
#define MPI_ERR_TAG          4
#define MPI_ERR_COMM         5
#define MPI_ERR_RANK         6
#define MPI_ERR_REQUEST      7
#define MPI_ERR_ROOT         8
#define MPI_ERR_GROUP        9
#define MPI_ERR_OP           10
#define MPI_ERR_TOPOLOGY     11
#define MPI_ERR_DIMS         12
#define MPI_ERR_ARG          13
#define MPI_ERR_UNKNOWN      14
#define MPI_ERR_TRUNCATE     15
#define MPI_ERR_OTHER        16
#define MPI_ERR_INTERN       17
#define MPI_ERR_IN_STATUS    18
#define MPI_ERR_PENDING      19
#define MPI_ERR_NO_MEM       20
#define MPI_ERR_KEYVAL       21
#define MPI_ERR_LASTCODE     21

/* environment */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);

/* attributes */
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval, void *extra_state);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
MPI_Comm_copy_attr_function MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN;
MPI_Comm_delete_attr_function MPI_COMM_NULL_DELETE_FN;
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval, void *extra_state);
int MPI_Type_free_keyval(int *keyval);
int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *value);
int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag);
int MPI_Type_delete_attr(MPI_Datatype type, int keyval);
MPI_Type_copy_attr_function MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN;
MPI_Type_delete_attr_function MPI_TYPE_NULL_DELETE_FN;
/* MPI-1's (deprecated.c) */
#define MPI_NULL_COPY_FN   MPI_COMM_NULL_COPY_FN
#define MPI_DUP_FN         MPI_COMM_DUP_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *value);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* info objects and memory */
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* errors */
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *eh);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Errhandler_free(MPI_Errhandler *eh);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);
int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh);     /* MPI-1's */
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh);

/* point to point */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req);
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Wait(MPI_Request *req, MPI_Status *status);
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]);
int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status);
int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Start(MPI_Request *req);
int MPI_Startall(int count, MPI_Request reqs[]);
int MPI_Request_free(MPI_Request *req);
int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);
int MPI_Cancel(MPI_Request *req);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);

/* communicators and groups */
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b,
                              int ranks_b[]);
int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result);
int MPI_Group_free(MPI_Group *group);

/* datatypes */
int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                    MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                            MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
                     MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displs[],
                             MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength, const int displs[],
                                  MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displs[],
                           const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displs[],
                                   MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype old,
                             MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
                          int max_datatypes, int integers[], MPI_Aint addresses[],
                          MPI_Datatype datatypes[]);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
             int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size);
/* MPI-1's (deprecated.c) */
int MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb);
int MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displs[], MPI_Datatype old,
                      MPI_Datatype *newtype);
int MPI_Type_struct(int count, int blocklengths[], MPI_Aint displs[], MPI_Datatype types[],
                    MPI_Datatype *newtype);
int MPI_Address(void *location, MPI_Aint *address);

/* topologies */
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart);
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                 int *newrank);
int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                  int *newrank);

/* collectives */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type,
                     MPI_Op op);
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);

#ifdef __cplusplus
}
#endif
#endif
