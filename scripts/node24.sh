#!/usr/bin/env bash
# Prints a PATH entry holding Node.js >= 24 (n8n 2.41 needs it): see node.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/node.sh" 24
