// A page that reads itself anew at each change its event stream tells (the standings, the seating, the round
// page: the element with data-live, and its htmx request hx-trigger="live from:body"): live.js's followPage.
import { followPage } from "./live.js";

followPage();
