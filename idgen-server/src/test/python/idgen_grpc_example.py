"""Calls an idgen server over gRPC from Python, with stubs generated from idgen.proto.

    python3 -m grpc_tools.protoc -I idgen-server/src/main/proto --python_out=. --grpc_python_out=. idgen.proto
    PYTHONPATH=. python3 idgen-server/src/test/python/idgen_grpc_example.py 127.0.0.1:9090 "$TOKEN"

(from the repository's root: the stubs are generated into the current directory, which PYTHONPATH=. puts where
Python looks for modules).

Debian packages: python3-grpcio python3-grpc-tools.
"""
import sys

import grpc

import idgen_pb2
import idgen_pb2_grpc


def main(target, token):
    metadata = (("authorization", "Bearer " + token),)
    with grpc.insecure_channel(target) as channel:
        idgen = idgen_pb2_grpc.IdgenStub(channel)

        ids = idgen.NextIds(idgen_pb2.NextIdsRequest(name="orders", count=3), metadata=metadata, timeout=30)
        print("ids", " ".join(ids.ids))

        parts = idgen.Decode(idgen_pb2.DecodeRequest(name="orders", id=ids.ids[0]), metadata=metadata, timeout=30)
        print("decoded", " ".join(f"{key}={value}" for key, value in sorted(parts.parts.items())))

        try:
            idgen.NextIds(idgen_pb2.NextIdsRequest(name="orders", count=-1), metadata=metadata, timeout=30)
        except grpc.RpcError as refused:
            trailers = dict(refused.trailing_metadata() or ())
            print("refused", refused.code().name, trailers.get("idgen-parameter"), refused.details())

        try:
            idgen.NextIds(idgen_pb2.NextIdsRequest(name="orders"), timeout=30)
        except grpc.RpcError as refused:
            print("without a token", refused.code().name)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
