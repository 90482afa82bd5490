package agent

import "net/http"

// routeClientFS routes the alloc dir endpoints (/v1/client/fs/...); false
// leaves the request to the rest of the table.
func (h *Handler) routeClientFS(r *http.Request, segs []string) (endpoint, bool) {
	return nil, false
}
