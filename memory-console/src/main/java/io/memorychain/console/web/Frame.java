package io.memorychain.console.web;

import java.util.ArrayList;
import java.util.List;

/**
 * What the layout shows around every page: who is signed in, the space picker, the navigation, the CSRF token for the
 * page's forms and the one-time message.
 *
 * @param space the open space, or null (pages outside spaces)
 * @param readOnly agent, sub-agent and worker keys: pages without actions
 * @param secret an issued key's secret, shown once
 */
public record Frame(
        String title,
        String nav,
        String who,
        String role,
        List<String> spaces,
        String space,
        String csrf,
        String flash,
        boolean flashError,
        String secret,
        boolean readOnly,
        boolean admin) {

    /** One navigation link. */
    public record NavItem(String label, String href, boolean current) {}

    public Frame {
        spaces = List.copyOf(spaces);
    }

    public List<NavItem> navItems() {
        List<NavItem> items = new ArrayList<>();
        String base = space == null ? null : "/console/s/" + space;
        add(items, "Inbox", base == null ? "/console" : base + "/inbox", "inbox");
        add(items, "Memories", base == null ? "/console" : base + "/memories", "memories");
        add(items, "Time machine", base == null ? "/console" : base + "/time", "time");
        add(items, "Audit", base == null ? "/console" : base + "/audit", "audit");
        add(items, "Health", base == null ? "/console" : base + "/health", "health");
        if (admin) {
            add(items, "Admin", "/console/admin", "admin");
        }
        return items;
    }

    private void add(List<NavItem> items, String label, String href, String key) {
        items.add(new NavItem(label, href, key.equals(nav)));
    }

    /** The path of a page of the open space. */
    public String in(String page) {
        return "/console/s/" + space + "/" + page;
    }
}
