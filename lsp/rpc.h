/* rpc.h — JSON-RPC 2.0 messages over a byte stream, framed as the
 * Language Server Protocol frames them:
 *
 *   Content-Length: 52\r\n
 *   \r\n
 *   {"jsonrpc":"2.0","id":1,"method":"shutdown"}...
 *
 * rpc_read returns one message at a time, parsed with json-c; a frame
 * whose header or body is broken is reported as such (RPC_BAD_FRAME,
 * RPC_BAD_JSON) and skipped, so that one bad message does not end the
 * session.  rpc_write frames and writes one message and flushes it.
 * Nothing here knows a method: that is server.c's business.
 */
#ifndef MOSAIC_LSP_RPC_H
#define MOSAIC_LSP_RPC_H

#include <stdbool.h>
#include <stdio.h>
#include <json.h>

/* The largest body accepted, 512 MiB: past any real document (the
 * compiler's offsets are 32-bit, support/diag.h), short of what a broken
 * header would make us allocate. */
#define RPC_MAX_BODY ((size_t)512 << 20)

typedef enum RpcStatus {
    RPC_OK,             /* *msg is the message (the caller puts it) */
    RPC_EOF,            /* the stream ended between messages */
    RPC_BAD_FRAME,      /* no or bad Content-Length, or a body too large */
    RPC_BAD_JSON,       /* the body is not JSON */
} RpcStatus;

typedef struct RpcReader {
    FILE *in;
    /* A header line that turned out to end with the next message's
     * header (a frame without Content-Length runs into the next one):
     * its tail, read again as the first line of the next header. */
    char *pending;
} RpcReader;

RpcStatus rpc_read(RpcReader *r, json_object **msg);
void rpc_reader_free(RpcReader *r);

/* Writes msg as one frame; false if the stream failed. */
bool rpc_write(FILE *out, json_object *msg);

/* The error codes the server answers with (JSON-RPC's and the protocol's). */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_SERVER_NOT_INITIALIZED = -32002,
    RPC_REQUEST_FAILED = -32803,    /* LSP: a valid request that cannot be done */
};

/* Small accessors that tolerate anything: a missing member, or one of
 * the wrong JSON type, gives NULL (or false). */
json_object *rpc_get(json_object *obj, const char *key);
json_object *rpc_path(json_object *obj, const char *dotted);  /* "a.b.c" */
const char *rpc_string(json_object *obj, const char *key);
bool rpc_int(json_object *obj, const char *key, int64_t *out);
bool rpc_true(json_object *obj, const char *dotted);
/* json_object_new_string of text made valid UTF-8 (text.h). */
json_object *rpc_new_string(const char *text);

#endif
