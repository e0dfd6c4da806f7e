#!/bin/bash
# usage: ac.sh port path... ; prints avg req/s with br accept-encoding
port=$1; shift
for p in "$@"; do
  r=$(npx autocannon -c 10 -d ${DUR:-4} -j -H 'accept-encoding=gzip, deflate, br' "http://127.0.0.1:$port$p" 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.requests.average, Math.round(j.throughput.average/j.requests.average), JSON.stringify(j.statusCodeStats))})')
  echo "$p $r"
done
