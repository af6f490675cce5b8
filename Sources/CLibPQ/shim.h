// libpq, PostgreSQL's C client library (pkg-config libpq). Imported only by TokenKitPostgres.
#include <libpq-fe.h>
