// The page script: see dashboard.js on the browser branch.
