extension HTMLRenderer {
    /// The script that applies ``DOMPatch``es in the browser: include it once in the page,
    /// then call `tallyApplyListPatch(ops, styleNonce)` with the decoded JSON array of
    /// ``json(_:)`` and the nonce of the page's `Content-Security-Policy` (the
    /// ``styleNonce`` the page was rendered with; leave it out for a page without one).
    ///
    /// It does exactly what the steps say, in order, with `children[index]` as the
    /// reference node (`null`, the end, past the last child). The `<style>` element of each
    /// component that a step brings gets the page's nonce before it joins the page, so the
    /// policy applies it as it applied those of the first render (a patch need not know the
    /// nonce, which is new for each response); no other element a step brings gets it.
    public static let patchScript = """
        function tallyApplyListPatch(ops, styleNonce) {
          const byId = (id) => document.getElementById(id);
          const parse = (html) => {
            const template = document.createElement("template");
            template.innerHTML = html;
            if (styleNonce) for (const style of template.content.querySelectorAll(".list-component > style")) style.nonce = styleNonce;
            return template.content.firstElementChild;
          };
          const put = (parent, node, index) => parent.insertBefore(node, parent.children[index] || null);
          for (const op of ops) {
            if (op.op === "insert") {
              put(byId(op.parent), parse(op.html), op.index);
            } else if (op.op === "remove") {
              byId(op.id).remove();
            } else if (op.op === "move") {
              const node = byId(op.id);
              node.remove();
              node.id = op.newId;
              put(byId(op.parent), node, op.index);
            } else if (op.op === "replace") {
              const old = byId(op.id), node = parse(op.html);
              const row = old.querySelector(".list-items"), newRow = node.querySelector(".list-items");
              old.replaceWith(node);
              if (row && newRow) newRow.scrollLeft = row.scrollLeft;
            }
          }
        }
        """
}
