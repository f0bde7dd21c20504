/**
 * The version of the V2 interface (the spec: "the interface description version is 2.0.0"), in the OpenAPI
 * document's `info.version` and in `GET /v2/health`'s `version`. It moves only when the interface does
 * (a new major version gets a new path prefix, `/v3`). package.json's `version` numbers builds of the
 * service instead: it is not on the wire.
 */
export const API_VERSION = '2.0.0';
