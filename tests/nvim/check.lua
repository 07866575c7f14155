-- tests/nvim/check.lua: run by tests/nvim.sh inside headless Neovim, with
-- the README's setup (editors/vim in the runtimepath, its LSP snippet) and
-- variant.rules open: a copy of tests/lsp/variant.rules with a slip
-- (`const bad  =  nosuch+1`: `nosuch` at 0-based column 14 of line 4) and two
-- lines out of fmt's layout.  Writes one
-- line per check to the file in $NVIM_CHECK_OUT: "ok NAME" or "FAIL NAME: ...".
local out = assert(io.open(os.getenv("NVIM_CHECK_OUT"), "w"))
local function check(cond, name, detail)
  out:write((cond and "ok " or "FAIL ") .. name .. (cond and "" or ": " .. tostring(detail)) .. "\n")
end
local want_text = os.getenv("NVIM_CHECK_WANT")   -- the file as fmt lays it out
local base_row = tonumber(os.getenv("NVIM_CHECK_BASE_ROW"))   -- 0-based

-- filetype and syntax
check(vim.bo.filetype == "regula", "filetype", vim.bo.filetype)
check(vim.b.current_syntax == "regula", "syntax loaded", vim.b.current_syntax)
local orow
for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  if l:find('^override rule "nobody outscouted"') then orow = i end
end
local group = vim.fn.synIDattr(vim.fn.synID(orow, 1, 1), "name")
check(group == "regulaVariant", "`override` highlighted as a regula keyword", group)

-- LSP diagnostics: the slip, at its line and column
local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local d = vim.diagnostic.get(0)[1] or {}
check(ok and d.message == "unknown name 'nosuch'" and d.lnum == 4 and d.col == 14,
      "diagnostic of the slip", vim.inspect(vim.diagnostic.get(0)))

-- formatting through the server (regula fmt's layout)
if vim.lsp.buf.format then
  vim.lsp.buf.format({ timeout_ms = 5000 })
else
  vim.lsp.buf.formatting_sync(nil, 5000)
end
local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n"
check(text == want_text, "formatting", text)

-- definition of a rule: from its name in `override rule "..." in deploy`
-- to the rule in base.rules
for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  if l:find('^override rule "nobody outscouted"') then orow = i end
end
vim.api.nvim_win_set_cursor(0, { orow, 18 })
vim.lsp.buf.definition()
ok = vim.wait(10000, function() return vim.api.nvim_buf_get_name(0):match("base%.rules$") ~= nil end, 50)
local cur = vim.api.nvim_win_get_cursor(0)
check(ok and cur[1] == base_row + 1 and cur[2] == 10, "definition of a rule",
      vim.api.nvim_buf_get_name(0) .. " " .. vim.inspect(cur))
out:close()
vim.cmd("qa!")
