"""Verifies a verdict receipt against a JWKS with joserfc, as a customer would (docs/api.md, "Verifying a verdict").

Usage: verify_receipt.py JWKS_FILE_OR_URL RECEIPT. Prints the signed verdict statement as JSON and exits 0,
or prints why it did not verify and exits 1.
"""
import json
import sys
import urllib.request

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import KeySet


def load_jwks(source: str) -> KeySet:
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=10) as response:
            return KeySet.import_key_set(json.load(response))
    with open(source, encoding="utf-8") as file:
        return KeySet.import_key_set(json.load(file))


def main() -> int:
    keys = load_jwks(sys.argv[1])
    try:
        verified = jws.deserialize_compact(sys.argv[2], keys, algorithms=["EdDSA"])
    except (JoseError, ValueError) as error:
        print(json.dumps({"valid": False, "reason": f"{type(error).__name__}: {error}"}))
        return 1
    print(json.dumps({"valid": True, "kid": verified.headers().get("kid"), "statement": json.loads(verified.payload)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
