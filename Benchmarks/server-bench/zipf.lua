-- The Zipf read mix (zipf.sh): each request is one of the paths in a file, most asked first
-- (zipf-requests.py); the one at rank r is asked with a weight of 1 / r^s.
-- Usage: wrk -s zipf.lua URL -- PATHS-FILE [s, default 1]
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  math.randomseed(os.time() * 100 + index)
  paths, cumulative = {}, {}
  local exponent = tonumber(args[2] or "1")
  local total = 0
  for line in io.lines(args[1]) do
    table.insert(paths, line)
    total = total + 1 / ((#paths) ^ exponent)
    cumulative[#paths] = total
  end
  ok, other = 0, 0
  refusal = nil
end

function request()
  -- The first rank whose cumulative weight reaches a uniform draw.
  local target = math.random() * cumulative[#cumulative]
  local low, high = 1, #cumulative
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cumulative[middle] < target then low = middle + 1 else high = middle end
  end
  return wrk.format("GET", paths[low])
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  else
    other = other + 1
    -- The first refusal's status and body, to say what it was.
    if other == 1 then refusal = status .. " " .. (body or ""):sub(1, 200) end
  end
end

function done(summary, latency, requests)
  local totals = { ok = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
  end
  io.write(string.format("zipf: 200 %d other %d\n", totals.ok, totals.other))
  for _, thread in ipairs(threads) do
    local refusal = thread:get("refusal")
    if refusal then io.write("refused: " .. refusal .. "\n") end
  end
end
