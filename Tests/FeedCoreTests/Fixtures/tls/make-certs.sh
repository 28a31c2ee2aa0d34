#!/bin/sh
# Regenerates the test PKI in this directory. Run from this directory:  sh make-certs.sh
# Needs OpenSSL 1.1.1 or later (for -addext / -copy_extensions-free signing via -extfile).
set -eu
DAYS=36500  # about 100 years

# The test CA (self-signed, may sign certificates).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout ca-key.pem -out ca.pem -days "$DAYS" \
  -subj "/CN=feedweb test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign"

# The server key and a certificate for 127.0.0.1 and localhost, signed by the test CA.
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout server-key.pem -out server.csr -subj "/CN=localhost"
cat > server.ext <<'EXT'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost
EXT
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
  -out server.pem -days "$DAYS" -extfile server.ext
rm -f server.csr server.ext ca.srl

# Another CA that signed nothing here: trusting it must not make the server trusted.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout other-ca-key.pem -out other-ca.pem -days "$DAYS" \
  -subj "/CN=feedweb unrelated test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign"
rm -f other-ca-key.pem
