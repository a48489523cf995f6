package assess

// PermissionPublic marks an operation that needs no credential at all (health, setup status,
// sign-in). It is the value of x-required-permission for such operations.
const PermissionPublic = "public"

// PermissionAuthenticated marks an operation any signed-in caller may use (for example
// reading their own profile): a credential is required but no permission key.
const PermissionAuthenticated = "authenticated"
