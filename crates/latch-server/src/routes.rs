//! A router that remembers the paths it was given. axum cannot list a router's
//! routes, so `app` registers every route through [`Routes`] and the OpenAPI test
//! (tests/openapi.rs) reads the paths back with [`crate::served_paths`]; the
//! methods each path serves it reads from the real router (the `Allow` header).

use axum::routing::MethodRouter;
use axum::Router;

use crate::AppState;

/// An axum router plus the paths registered on it.
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    paths: Vec<&'static str>,
}

impl Routes {
    /// No routes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`Router::route`], remembering `path`.
    pub fn route(mut self, path: &'static str, method_router: MethodRouter<AppState>) -> Self {
        self.router = self.router.route(path, method_router);
        self.paths.push(path);
        self
    }

    /// [`Router::merge`], keeping both lists of paths.
    pub fn merge(mut self, other: Routes) -> Self {
        self.router = self.router.merge(other.router);
        self.paths.extend(other.paths);
        self
    }

    /// Applies `wrap` (a layer, say) to the router; the paths stay as they are.
    pub fn map_router(mut self, wrap: impl FnOnce(Router<AppState>) -> Router<AppState>) -> Self {
        self.router = wrap(self.router);
        self
    }

    /// The paths registered so far, in registration order.
    pub fn paths(&self) -> &[&'static str] {
        &self.paths
    }

    /// The router itself.
    pub fn into_router(self) -> Router<AppState> {
        self.router
    }
}

impl From<Routes> for Router<AppState> {
    fn from(routes: Routes) -> Self {
        routes.into_router()
    }
}
