import { faultShard } from './shard.ts'
import { FAULT_SHARDS } from './paths.ts'

faultShard(0, FAULT_SHARDS)
