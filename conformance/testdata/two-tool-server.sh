#!/bin/sh
# A partial implementation for the suite's own tests: two tools
# (read_search, read_media) and api_key mode only. It wraps the reference
# server given as $1 and refuses jwt mode the way a server without a login
# path would: a message on stderr and exit status 2.
if [ "$OMBI_AUTH_MODE" != api_key ]; then
	echo "two-tool-server: OMBI_AUTH_MODE=$OMBI_AUTH_MODE is not supported; set api_key" >&2
	exit 2
fi
server=$1
shift
OMBI_TOOLS=read_search,read_media exec "$server" "$@"
