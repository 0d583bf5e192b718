import { faultShard } from './shard.ts'
import { FAULT_SHARDS } from './paths.ts'

faultShard(1, FAULT_SHARDS)
