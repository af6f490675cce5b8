#ifndef TOKENKIT_CLIBSECRET_SHIM_H
#define TOKENKIT_CLIBSECRET_SHIM_H
// The only C header TokenKitSecretService imports. Nothing else may import this module.
#include <libsecret/secret.h>
#endif
