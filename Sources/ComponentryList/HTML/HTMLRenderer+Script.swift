extension HTMLRenderer {
    /// The script that applies ``DOMPatch``es in the browser: include it once in the page,
    /// then call `tallyApplyListPatch(ops)` with the decoded JSON array of
    /// ``json(_:)``.
    ///
    /// It does exactly what the steps say, in order, with `children[index]` as the
    /// reference node (`null`, the end, past the last child).
    public static let patchScript = """
        function tallyApplyListPatch(ops) {
          const byId = (id) => document.getElementById(id);
          const parse = (html) => {
            const template = document.createElement("template");
            template.innerHTML = html;
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
